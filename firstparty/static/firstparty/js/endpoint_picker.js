// A file, not an inline <script>: the Content-Security-Policy allows scripts from our origin only.
// The run form's endpoint checkboxes (firstparty/endpoint_picker.py): a search box that hides the
// endpoints and models it does not match, and per model a box that ticks all of its endpoints.
(function () {
    "use strict";

    function setUp(picker) {
        var search = picker.querySelector("[data-endpoint-picker-search]");
        var groups = Array.prototype.slice.call(picker.querySelectorAll("[data-endpoint-picker-model]"));

        groups.forEach(function (group) {
            var allLabel = group.querySelector("[data-endpoint-picker-all]");
            var all = allLabel.querySelector("input");
            var boxes = Array.prototype.slice.call(group.querySelectorAll("[data-endpoint-picker-item] input"));
            var sync = function () {
                var ticked = boxes.filter(function (box) { return box.checked; }).length;
                all.checked = ticked === boxes.length;
                all.indeterminate = ticked > 0 && ticked < boxes.length;
            };
            all.addEventListener("change", function () {
                boxes.forEach(function (box) { if (!box.disabled) { box.checked = all.checked; } });
                sync();
            });
            boxes.forEach(function (box) { box.addEventListener("change", sync); });
            allLabel.hidden = false;
            sync();
        });

        var input = search.querySelector("input");
        input.addEventListener("input", function () {
            var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
            groups.forEach(function (group) {
                var shown = 0;
                group.querySelectorAll("[data-endpoint-picker-item]").forEach(function (item) {
                    // Every word typed must match (provider, tier, model or API id), as in the choosers.
                    var match = words.every(function (word) { return item.dataset.search.indexOf(word) !== -1; });
                    item.hidden = !match;
                    if (match) { shown += 1; }
                });
                group.hidden = shown === 0;
            });
        });
        search.hidden = false;
    }

    function start() {
        document.querySelectorAll("[data-endpoint-picker]").forEach(setUp);
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
    } else {
        start();
    }
})();
