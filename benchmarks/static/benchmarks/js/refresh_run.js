// A file, not an inline <script>: the Content-Security-Policy allows scripts from our origin only.
// Poll while the run is queued or running; reload once it finishes to show the full outcome.
(function () {
    var root = document.getElementById("refresh-run");
    if (!root || root.dataset.finished === "true") { return; }
    function poll() {
        fetch(root.dataset.statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
            .then(function (response) { return response.json(); })
            .then(function (data) {
                ["status_label", "progress", "rows_read", "rows_changed", "unmapped_rows"].forEach(function (name) {
                    var field = root.querySelector('[data-run-field="' + name + '"]');
                    if (field) { field.textContent = data[name]; }
                });
                var beat = root.querySelector('[data-run-field="heartbeat_at"]');
                if (beat && data.heartbeat_at) {
                    beat.textContent = new Date(data.heartbeat_at).toLocaleTimeString([], {hour12: false});
                }
                if (data.finished) { window.location.reload(); } else { window.setTimeout(poll, 1000); }
            })
            .catch(function () { window.setTimeout(poll, 3000); });
    }
    window.setTimeout(poll, 1000);
})();
