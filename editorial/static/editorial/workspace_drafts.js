// Unsaved text survives switching filters (each filter is its own page load): what a translator types
// is kept in this tab's sessionStorage, per page and segment, and put back when the segment shows
// again — unless the segment's saved Spanish changed meanwhile (its "seen" hash differs), in which
// case the kept text is stale and dropped. Runs before the rich text editor builds from the textarea.
(function () {
  "use strict";

  var filters = document.querySelector("nav.workspace-filters");
  if (!filters || !window.sessionStorage) return;
  var form = document.querySelector("form.workspace-form");
  var prefix = "workspace-draft:" + window.location.pathname + ":";

  function read(key) {
    try {
      return JSON.parse(window.sessionStorage.getItem(prefix + key) || "null");
    } catch (error) {
      return null;
    }
  }

  function parts(row) {
    var textarea = row.querySelector("textarea[name^='text-']");
    var seen = textarea && form.querySelector("input[name='seen-" + textarea.name.slice(5) + "']");
    return textarea && seen ? { textarea: textarea, seen: seen.value, key: row.dataset.key } : null;
  }

  function mark(row) {
    if (row.querySelector(".workspace-unsaved")) return;
    var badge = document.createElement("span");
    badge.className = "w-status w-status--primary workspace-unsaved";
    badge.textContent = filters.dataset.labelUnsaved;
    row.querySelector(".workspace-label").appendChild(badge);
  }

  var shown = {};
  (form ? form.querySelectorAll("tr.workspace-segment") : []).forEach(function (row) {
    var found = parts(row);
    if (!found) return;
    shown[found.key] = true;
    var kept = read(found.key);
    if (kept && kept.seen !== found.seen) {
      window.sessionStorage.removeItem(prefix + found.key);
    } else if (kept && kept.text !== found.textarea.value) {
      found.textarea.value = kept.text;
      mark(row);
    }
    found.textarea.addEventListener("input", function () {
      window.sessionStorage.setItem(prefix + found.key, JSON.stringify({ seen: found.seen, text: found.textarea.value }));
      mark(row);
    });
  });

  // Text typed under another filter waits there: say so, since this form does not post it.
  var elsewhere = 0;
  for (var index = 0; index < window.sessionStorage.length; index++) {
    var name = window.sessionStorage.key(index);
    if (name.indexOf(prefix) === 0 && !shown[name.slice(prefix.length)]) elsewhere++;
  }
  if (elsewhere) {
    var note = document.createElement("p");
    note.className = "help-block help-warning workspace-unsaved-elsewhere";
    note.textContent = filters.dataset.labelElsewhere.replace("%(count)s", elsewhere);
    filters.after(note);
  }

  if (form) form.addEventListener("submit", function () {
    // Posted now: a refused post shows what was typed again, a saved one has new "seen" hashes.
    Object.keys(shown).forEach(function (key) { window.sessionStorage.removeItem(prefix + key); });
  });
})();
