// The chat websocket, reopened with exponential backoff (and jitter, so that many tabs do
// not return at the same instant) whenever it drops.

const MAX_DELAY_MS = 15_000;

export class ChatSocket {
  // onEvent(event), onState(state, delayMs), onClosed(): a connection that was open ended;
  // signedIn(): resolves false when the server no longer knows this browser (no retrying).
  constructor(url, { onEvent, onState, onOpen, onClosed, signedIn }) {
    Object.assign(this, { url, onEvent, onState, onOpen, onClosed, signedIn });
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.waiters = [];
    window.addEventListener("online", () => this.reconnectNow());
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.onState("connecting");
    const ws = new WebSocket(this.url);
    let opened = false;
    this.ws = ws;
    ws.addEventListener("open", () => {
      opened = true;
      this.attempt = 0;
      this.onState("open");
      this.waiters.splice(0).forEach((resolve) => resolve(true));
      this.onOpen?.();
    });
    ws.addEventListener("message", (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return; // not ours
      }
      this.onEvent(event);
    });
    ws.addEventListener("close", async () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (opened) this.onClosed?.();
      // A refused handshake looks like any network failure to a browser: ask the server
      // whether the session is still signed in before trying again.
      if (!opened && this.signedIn && !(await this.signedIn())) {
        this.stopped = true;
        this.onState("signed-out");
        this.waiters.splice(0).forEach((resolve) => resolve(false));
        return;
      }
      const delay = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this.onState("closed", delay);
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  whenOpen(timeoutMs) {
    if (this.isOpen) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    this.reconnectNow();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ok) => {
        clearTimeout(timer);
        resolve(ok);
      };
      this.waiters.push(done);
    });
  }
}
