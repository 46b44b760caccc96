// Files from the chat into ingestion: sent to the upload API (the bar shows the bytes as
// they go), then followed through the `ingestion_progress` events of the chat socket.

import { csrfToken, errorText, h } from "./dom.js";

// The first fifth of the bar is the transfer, the rest the ingestion job.
const TRANSFER_SHARE = 0.2;

class Upload {
  constructor(files, collection) {
    this.names = files.map((f) => f.name);
    this.collection = collection;
    this.job = null;
    this.finished = false;
    this.label = h("span", { class: "upload-name" }, this.names.join(", "));
    this.state = h("span", { class: "upload-state muted" }, "Starting…");
    this.bar = h("progress", { max: "100", value: "0", "aria-label": `Upload of ${this.names.join(", ")}` });
    this.detail = h("div", { class: "upload-detail muted" });
    this.dismiss = h("button", { type: "button", class: "link small", hidden: true }, "Dismiss");
    this.dismiss.addEventListener("click", () => this.el.remove());
    this.el = h("div", { class: "upload", role: "group", "aria-label": "Upload" },
      h("div", { class: "upload-head" }, this.label, h("span", {}, this.state, " ", this.dismiss)),
      this.bar, this.detail);
  }

  end() {
    this.finished = true;
    this.dismiss.hidden = false;
  }

  show(fraction, state) {
    this.bar.value = Math.round(Math.min(Math.max(fraction, 0), 1) * 100);
    if (state) this.state.textContent = state;
  }

  fail(text) {
    this.end();
    this.el.classList.add("failed");
    this.show(1, "Failed");
    this.detail.textContent = text;
    this.detail.setAttribute("role", "alert");
  }

  // A job as the REST API or an `ingestion_progress` event describes it.
  apply(job) {
    if (this.finished) return;
    this.job = { ...this.job, ...job };
    const { status, progress = 0, total = this.names.length, counts = {} } = this.job;
    const fraction = TRANSFER_SHARE + (1 - TRANSFER_SHARE) * Number(progress || 0);
    const item = job.item;
    if (item?.status === "failed" && item.error) {
      this.detail.textContent = `${item.file_path}: ${item.error}`;
    } else if (item?.stage && item.status === "processing") {
      this.detail.textContent = `${item.file_path}: ${item.stage}`;
    }
    if (status === "done") {
      this.end();
      const parts = [`${counts.done ?? total} added`];
      if (counts.skipped) parts.push(`${counts.skipped} unchanged`);
      if (counts.failed) parts.push(`${counts.failed} failed`);
      this.el.classList.add("done");
      this.show(1, "Ready");
      this.detail.textContent = `${parts.join(", ")} in “${this.collection}”. Ask about ${total === 1 ? "it" : "them"} now.`;
    } else if (status === "failed") {
      this.fail(this.job.error || this.detail.textContent || "Ingestion failed.");
    } else if (status === "finalizing") {
      this.show(fraction, "Linking the documents…");
    } else if (status === "running") {
      const done = (counts.done || 0) + (counts.skipped || 0) + (counts.failed || 0);
      this.show(fraction, `Processing ${done} of ${total}`);
    } else {
      this.show(fraction, "Queued");
    }
  }
}

export class Uploads {
  constructor({ container, uploadUrl, jobsUrl }) {
    Object.assign(this, { container, uploadUrl, jobsUrl });
    this.byJob = new Map();
  }

  start(files, collection) {
    const upload = new Upload(files, collection);
    this.container.append(upload.el);
    const form = new FormData();
    files.forEach((file) => form.append("files", file));
    const request = new XMLHttpRequest();
    request.open("POST", `${this.uploadUrl}?${new URLSearchParams({ collection })}`);
    request.setRequestHeader("X-CSRFToken", csrfToken());
    request.setRequestHeader("Accept", "application/json");
    request.responseType = "json";
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) {
        upload.show(TRANSFER_SHARE * (e.loaded / e.total), `Uploading ${Math.round((100 * e.loaded) / e.total)}%`);
      }
    });
    request.addEventListener("load", () => {
      if (request.status !== 202 || !request.response?.id) {
        upload.fail(errorText(request.response, request.status));
        return;
      }
      this.byJob.set(String(request.response.id), upload);
      upload.apply(request.response);
    });
    request.addEventListener("error", () => upload.fail("The upload did not reach the server; try again."));
    request.send(form);
    upload.show(0, "Uploading…");
  }

  // An `ingestion_progress` event from the socket.
  progress(event) {
    const upload = this.byJob.get(String(event.job));
    if (!upload) return; // another tab's upload
    upload.apply(event);
  }

  // After the socket was away, read the jobs whose events may have been missed.
  async refresh() {
    for (const [id, upload] of this.byJob) {
      if (upload.finished) continue;
      try {
        const response = await fetch(`${this.jobsUrl}${id}/`, { credentials: "same-origin" });
        if (response.ok) upload.apply(await response.json());
      } catch {
        // The next event or refresh will tell.
      }
    }
  }
}
