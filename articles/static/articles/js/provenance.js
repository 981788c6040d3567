/* Provenance controls: a button next to a figure opens its trail (source, date, method).
   Buttons work with a keyboard and on touch screens, where a title tooltip never shows. */
(function () {
    'use strict';

    function panelOf(button) {
        var panel = button.nextElementSibling;
        return panel && panel.classList.contains('prov-panel') ? panel : null;
    }

    function setOpen(button, open) {
        var panel = panelOf(button);
        if (!panel) {
            return;
        }
        button.setAttribute('aria-expanded', open ? 'true' : 'false');
        panel.hidden = !open;
    }

    document.addEventListener('click', function (event) {
        var button = event.target.closest && event.target.closest('.prov-toggle');
        if (!button) {
            return;
        }
        setOpen(button, button.getAttribute('aria-expanded') !== 'true');
    });

    document.addEventListener('keydown', function (event) {
        if (event.key !== 'Escape') {
            return;
        }
        document.querySelectorAll('.prov-toggle[aria-expanded="true"]').forEach(function (button) {
            setOpen(button, false);
            if (event.target.closest && event.target.closest('.prov-panel') === panelOf(button)) {
                button.focus();
            }
        });
    });
})();
