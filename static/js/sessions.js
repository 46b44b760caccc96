// The conversation list: rename and delete through the API, a new session added on its
// first question, and the drawer it becomes on a phone.

import { api, h, icon } from "./dom.js";

const UNTITLED = "Untitled conversation";

export class SessionList {
  constructor({ layout, list, toggle, sessionUrl, conversationUrl, indexUrl, onError }) {
    Object.assign(this, { layout, list, toggle, sessionUrl, conversationUrl, indexUrl, onError });
    list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      const item = button?.closest(".session-item");
      if (!item) return;
      if (button.dataset.action === "rename") this.rename(item);
      if (button.dataset.action === "delete") this.remove(item);
    });
    toggle?.addEventListener("click", () => this.setOpen(!layout.classList.contains("sessions-open")));
    layout.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && layout.classList.contains("sessions-open")) {
        this.setOpen(false);
        toggle.focus();
      }
    });
  }

  setOpen(open) {
    this.layout.classList.toggle("sessions-open", open);
    this.toggle?.setAttribute("aria-expanded", String(open));
    if (open) this.layout.querySelector("#session-search")?.focus();
  }

  titleOf(item) {
    return item.querySelector("a").textContent.trim();
  }

  setTitle(item, title) {
    const text = title || UNTITLED;
    const link = item.querySelector("a");
    link.textContent = text;
    link.title = text;
    item.querySelector('[data-action="rename"]').setAttribute("aria-label", `Rename “${text}”`);
    item.querySelector('[data-action="delete"]').setAttribute("aria-label", `Delete “${text}”`);
  }

  // A session that has just been created: first in the list, marked current.
  add(session) {
    this.list.querySelector(".empty-list")?.remove();
    this.list.querySelectorAll(".session-item.current").forEach((item) => {
      item.classList.remove("current");
      item.querySelector("a").removeAttribute("aria-current");
    });
    const item = h("li", { class: "session-item current", dataset: { sessionId: session.id } },
      h("a", { href: this.conversationUrl(session.id), "aria-current": "page" }),
      h("span", { class: "session-actions" },
        h("button", { type: "button", title: "Rename", dataset: { action: "rename" } }, icon("edit")),
        h("button", { type: "button", title: "Delete", dataset: { action: "delete" } }, icon("trash"))));
    this.setTitle(item, session.title);
    this.list.prepend(item);
    return item;
  }

  item(id) {
    return this.list.querySelector(`.session-item[data-session-id="${CSS.escape(String(id))}"]`);
  }

  rename(item) {
    const link = item.querySelector("a");
    const actions = item.querySelector(".session-actions");
    const current = link.textContent === UNTITLED ? "" : link.textContent.trim();
    const input = h("input", { type: "text", value: current, maxlength: "200", "aria-label": "New title" });
    const error = h("span", { class: "visually-hidden", role: "alert" });
    const form = h("form", {}, input, h("button", { type: "submit", class: "small" }, "Save"), error);
    const close = () => {
      form.remove();
      link.hidden = false;
      actions.hidden = false;
      item.querySelector('[data-action="rename"]').focus();
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const session = await api(this.sessionUrl(item.dataset.sessionId), {
          method: "PATCH",
          body: { title: input.value },
        });
        this.setTitle(item, session?.title ?? input.value);
        close();
      } catch (failure) {
        this.onError(`The title was not saved: ${failure.message}`);
        input.focus(); // the typed title stays in the box
      }
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        close();
      }
    });
    link.hidden = true;
    actions.hidden = true;
    item.prepend(form);
    input.focus();
    input.select();
  }

  async remove(item) {
    const title = this.titleOf(item);
    if (!window.confirm(`Delete “${title}” and all its messages? This cannot be undone.`)) return;
    try {
      await api(this.sessionUrl(item.dataset.sessionId), { method: "DELETE" });
    } catch (failure) {
      if (failure.status !== 404) {
        this.onError(`“${title}” was not deleted: ${failure.message}`);
        return;
      }
    }
    const wasCurrent = item.classList.contains("current");
    const next = item.nextElementSibling?.querySelector("a") || item.previousElementSibling?.querySelector("a");
    item.remove();
    if (wasCurrent) {
      window.location.assign(this.indexUrl);
      return;
    }
    (next || document.getElementById("new-session"))?.focus();
  }
}
