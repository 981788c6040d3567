// A file, not an inline <script>: the Content-Security-Policy allows scripts from our origin only.
// While an upload is being imported, ask its status every two seconds and move the figures on the
// page; once it has ended, reload the page, which then shows the result or every error.
(function () {
    var root = document.getElementById("upload-progress");
    if (!root || root.dataset.finished === "1" || !window.fetch) { return; }
    var status = root.querySelector("[data-upload-status]");
    var bar = root.querySelector("[data-upload-percent]");
    var text = root.querySelector("[data-upload-text]");
    var stalled = root.querySelector("[data-upload-stalled]");

    function show(data) {
        if (data.finished) {
            window.location.reload();
            return false;
        }
        status.textContent = data.label;
        bar.value = data.percent;
        bar.textContent = data.percent + "%";
        text.textContent = data.text;
        stalled.textContent = data.stalled;
        stalled.hidden = !data.stalled;
        return true;
    }

    function poll() {
        fetch(root.dataset.statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
            .then(function (response) {
                if (!response.ok) { throw new Error(response.status); }
                return response.json();
            })
            .then(function (data) {
                if (show(data)) { window.setTimeout(poll, 2000); }
            })
            .catch(function () { window.setTimeout(poll, 5000); });  // a restart or a blip: try again later
    }

    window.setTimeout(poll, 1000);
})();
