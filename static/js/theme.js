// Light or dark: the system's preference unless the person chose one with the toggle,
// which is remembered in this browser. Runs in <head> so the page paints in its theme.
(() => {
  const KEY = "switchboard-theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");

  let unsaved = null; // the choice when storage is disabled: kept for this page only

  const stored = () => {
    try {
      const value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : unsaved;
    } catch {
      return unsaved;
    }
  };
  const effective = () => stored() || (system.matches ? "dark" : "light");

  const apply = () => {
    const chosen = stored();
    if (chosen) root.dataset.theme = chosen;
    else delete root.dataset.theme;
    const button = document.getElementById("theme-toggle");
    if (button) button.setAttribute("aria-pressed", String(effective() === "dark"));
  };

  apply();
  system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    apply();
    document.getElementById("theme-toggle")?.addEventListener("click", () => {
      const next = effective() === "dark" ? "light" : "dark";
      unsaved = next;
      try {
        localStorage.setItem(KEY, next);
      } catch {
        // Not remembered across pages, but switched all the same.
      }
      apply();
    });
  });
})();
