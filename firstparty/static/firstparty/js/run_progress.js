// A file, not an inline <script>: the Content-Security-Policy allows scripts from our origin only.
// While a run is running, reload its progress page every few seconds so the counts move on their own.
(function () {
    var root = document.getElementById("run-progress");
    var seconds = root ? parseInt(root.dataset.refreshSeconds, 10) : 0;
    if (!seconds) { return; }
    window.setTimeout(function () { window.location.reload(); }, seconds * 1000);
})();
