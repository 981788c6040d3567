/* Server-drawn SVG charts, enhanced: a tooltip with a point's value, date and notes on hover and on
   keyboard focus, and buttons that hide or show a trend chart's lines.

   Without this script the chart is a picture with the same points in the data table under it (the
   accessible path); nothing here is needed to read a figure. Every word shown comes from the page, in
   its language: the tooltip from the point's data-tip-* attributes (or its <title>), the buttons from
   the template. Each chart keeps one tab stop: the arrow keys move between its points (a chart can hold
   a hundred), Home and End go to a line's ends, Escape closes the tooltip. The template may load this
   file once per chart: it runs once per page and marks the charts it has enhanced. */
(function () {
    'use strict';

    if (window.llmbenchCharts) {
        return;
    }
    window.llmbenchCharts = true;

    var SVG_NS = 'http://www.w3.org/2000/svg';
    var NEAR = 24; // viewBox units around a point that count as pointing at it

    function pointsOf(figure) {
        return Array.prototype.slice.call(figure.querySelectorAll('.trend-point, .scatter-point circle'));
    }

    function lineOf(point) {
        return point.closest('.trend-series') || point.closest('svg');
    }

    function visible(point) {
        var line = point.closest('.trend-series');
        return !line || !line.classList.contains('trend-off');
    }

    function centre(point) {
        var x = point.getAttribute('data-x') || point.getAttribute('cx');
        var y = point.getAttribute('data-y') || point.getAttribute('cy');
        return {x: parseFloat(x), y: parseFloat(y)};
    }

    function tipLines(point) {
        var name = point.getAttribute('data-tip-name');
        if (name === null) {
            return {title: point.getAttribute('data-label') || '', lines: []};
        }
        var lines = [point.getAttribute('data-tip-value'), point.getAttribute('data-tip-date')];
        var notes = point.getAttribute('data-tip-notes');
        if (notes) {
            lines = lines.concat(notes.split('\n'));
        }
        return {title: name, lines: lines};
    }

    function enhance(figure) {
        var svg = figure.querySelector('svg.chart-svg');
        var points = pointsOf(figure);
        if (!svg || !points.length) {
            return;
        }
        figure.setAttribute('data-enhanced', '');
        figure.classList.add('chart-point-host');
        // The points become focusable, so the picture is a group of images rather than one image.
        svg.setAttribute('role', 'group');
        points.forEach(function (point) {
            var title = point.querySelector('title');
            var label = title ? title.textContent : '';
            if (title) {
                title.remove(); // the browser's own tooltip would cover ours
            }
            point.setAttribute('data-label', label);
            point.setAttribute('role', 'img');
            point.setAttribute('aria-label', label);
            point.setAttribute('tabindex', '-1');
            point.classList.add('chart-point');
        });

        var tip = document.createElement('div');
        tip.className = 'chart-point-tip';
        tip.setAttribute('aria-hidden', 'true'); // the focused point's label says the same
        tip.hidden = true;
        figure.appendChild(tip);
        var ring = document.createElementNS(SVG_NS, 'circle');
        ring.setAttribute('class', 'chart-point-ring');
        ring.setAttribute('r', '8');
        ring.setAttribute('fill', 'none');
        ring.setAttribute('display', 'none');
        svg.appendChild(ring);
        var shown = null;

        function show(point) {
            var text = tipLines(point);
            tip.textContent = '';
            var heading = document.createElement('strong');
            heading.textContent = text.title;
            tip.appendChild(heading);
            text.lines.forEach(function (line) {
                if (!line) {
                    return;
                }
                var row = document.createElement('span');
                row.textContent = line;
                tip.appendChild(row);
            });
            tip.hidden = false;
            var at = centre(point);
            ring.setAttribute('cx', at.x);
            ring.setAttribute('cy', at.y);
            ring.setAttribute('display', 'inline');
            if (shown && shown !== point) {
                shown.classList.remove('chart-point-active');
            }
            point.classList.add('chart-point-active');
            shown = point;
            place(point);
        }

        function place(point) {
            var box = figure.getBoundingClientRect();
            var mark = point.getBoundingClientRect();
            var left = mark.left + mark.width / 2 - box.left - tip.offsetWidth / 2;
            left = Math.max(0, Math.min(left, box.width - tip.offsetWidth));
            // Close to the point, so the pointer can move onto the tooltip without leaving the point's
            // reach on the way (WCAG 1.4.13: content shown on hover can itself be hovered).
            var top = mark.top - box.top - tip.offsetHeight - 6;
            if (top < 0) {
                top = mark.bottom - box.top + 6;
            }
            tip.style.left = left + 'px';
            tip.style.top = top + 'px';
        }

        function hide() {
            tip.hidden = true;
            ring.setAttribute('display', 'none');
            if (shown) {
                shown.classList.remove('chart-point-active');
            }
            shown = null;
        }

        function nearest(event) {
            var matrix = svg.getScreenCTM();
            if (!matrix) {
                return null;
            }
            var at = svg.createSVGPoint();
            at.x = event.clientX;
            at.y = event.clientY;
            at = at.matrixTransform(matrix.inverse());
            var best = null;
            var distance = NEAR;
            points.forEach(function (point) {
                if (!visible(point)) {
                    return;
                }
                var c = centre(point);
                var d = Math.sqrt(Math.pow(c.x - at.x, 2) + Math.pow(c.y - at.y, 2));
                if (d <= distance) {
                    best = point;
                    distance = d;
                }
            });
            return best;
        }

        function pointAt(event) {
            var point = nearest(event);
            if (point) {
                show(point);
            } else if (!svg.contains(document.activeElement)) {
                hide();
            }
        }

        svg.addEventListener('pointermove', pointAt);
        svg.addEventListener('pointerdown', pointAt); // a tap on a touch screen
        function leave(event) {
            if (tip.contains(event.relatedTarget) || svg.contains(event.relatedTarget)) {
                return;
            }
            var focused = document.activeElement;
            if (svg.contains(focused) && focused.classList.contains('chart-point')) {
                show(focused);
            } else {
                hide();
            }
        }

        svg.addEventListener('pointerleave', leave);
        tip.addEventListener('pointerleave', leave);
        // Dismissed without moving the pointer or the focus (WCAG 1.4.13), and by a tap elsewhere.
        document.addEventListener('keydown', function (event) {
            if (event.key === 'Escape') {
                tip.hidden = true;
            }
        });
        document.addEventListener('pointerdown', function (event) {
            if (!svg.contains(event.target) && !tip.contains(event.target) && !svg.contains(document.activeElement)) {
                hide();
            }
        });

        // One tab stop per chart: the point last visited, else the first visible one.
        function setStop(point) {
            points.forEach(function (other) {
                other.setAttribute('tabindex', other === point ? '0' : '-1');
            });
        }

        function firstVisible() {
            return points.filter(visible)[0] || null;
        }

        setStop(firstVisible());

        function move(point, key) {
            var line = lineOf(point);
            var own = points.filter(function (other) {
                return lineOf(other) === line;
            });
            var index = own.indexOf(point);
            if (key === 'ArrowRight' || key === 'ArrowLeft') {
                return own[index + (key === 'ArrowRight' ? 1 : -1)] || null;
            }
            if (key === 'Home' || key === 'End') {
                return own[key === 'Home' ? 0 : own.length - 1];
            }
            // Up and down: the nearest point in time on the next visible line.
            var lines = [];
            points.forEach(function (other) {
                if (visible(other) && lines.indexOf(lineOf(other)) < 0) {
                    lines.push(lineOf(other));
                }
            });
            var next = lines[lines.indexOf(line) + (key === 'ArrowDown' ? 1 : -1)];
            if (!next) {
                return null;
            }
            var x = centre(point).x;
            var found = null;
            points.forEach(function (other) {
                if (lineOf(other) === next && (!found || Math.abs(centre(other).x - x) < Math.abs(centre(found).x - x))) {
                    found = other;
                }
            });
            return found;
        }

        // Focus listeners on an SVG element make Chromium put the element itself in the tab order (an
        // SVG 1.2 rule it kept): they sit on the figure, which is HTML.
        figure.addEventListener('focusin', function (event) {
            if (event.target.classList && event.target.classList.contains('chart-point')) {
                setStop(event.target);
                show(event.target);
            }
        });
        figure.addEventListener('focusout', function (event) {
            if (!svg.contains(event.relatedTarget)) {
                hide();
            }
        });
        figure.addEventListener('keydown', function (event) {
            var point = event.target;
            if (!point.classList || !point.classList.contains('chart-point')) {
                return;
            }
            if (event.key === 'Escape') {
                return; // the tooltip closes (the document's listener); the ring stays where the focus is
            }
            if (['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Home', 'End'].indexOf(event.key) < 0) {
                return;
            }
            event.preventDefault(); // the arrows would scroll the page
            var next = move(point, event.key);
            if (next) {
                next.focus();
            }
        });

        var controls = figure.querySelector('.trend-controls');
        if (!controls) {
            return;
        }
        controls.hidden = false;
        controls.addEventListener('click', function (event) {
            var button = event.target.closest('.trend-toggle');
            if (!button) {
                return;
            }
            var on = button.getAttribute('aria-pressed') !== 'true';
            button.setAttribute('aria-pressed', on ? 'true' : 'false');
            var line = svg.querySelector('.trend-series[data-series="' + button.getAttribute('data-series') + '"]');
            if (!line) {
                return;
            }
            line.classList.toggle('trend-off', !on);
            if (shown && !visible(shown)) {
                hide();
            }
            var stop = svg.querySelector('.chart-point[tabindex="0"]');
            if (!stop || !visible(stop)) {
                setStop(firstVisible());
            }
        });
    }

    function start() {
        document.querySelectorAll('figure.svg-chart:not([data-enhanced])').forEach(enhance);
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
