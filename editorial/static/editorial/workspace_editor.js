// The workspace's rich text editor: translators edit rich text as text (bold, italic, links) with the
// English's figures as labelled chips they can move but not retype. The form still posts the textarea
// (tokens as {1} and <a id="a1">), which the server checks and sanitizes; without this script the
// textarea is the editor. Nothing typed is ever inserted as HTML: markup is rebuilt node by node.
(function () {
  "use strict";

  var BLOCK = { p: 1, ul: 1, ol: 1, li: 1, h3: 1 };
  var INLINE = { b: 1, i: 1, strong: 1, em: 1, code: 1 };
  var DROPPED = { script: 1, style: 1, template: 1, iframe: 1, object: 1, noscript: 1, title: 1 };
  var LINK_ID = /^a\d+$/;

  function escapeText(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
  }

  function chip(number, label) {
    var span = document.createElement("span");
    span.className = "token-chip";
    span.contentEditable = "false";
    span.dataset.token = number;
    span.title = "{" + number + "}";
    span.textContent = label;
    return span;
  }

  // Text with {n} tokens -> nodes, a chip for each token the English has.
  function textNodes(text, labels, into) {
    var pattern = /\{(\d+)\}/g;
    var last = 0;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (!Object.prototype.hasOwnProperty.call(labels, match[1])) continue;
      if (match.index > last) into.appendChild(document.createTextNode(text.slice(last, match.index)));
      into.appendChild(chip(match[1], labels[match[1]]));
      last = pattern.lastIndex;
    }
    if (last < text.length) into.appendChild(document.createTextNode(text.slice(last)));
  }

  // Copies only the allow-listed structure of a parsed (inert) document into the editor.
  function importNodes(from, into, labels) {
    from.childNodes.forEach(function (node) {
      if (node.nodeType === Node.TEXT_NODE) {
        textNodes(node.nodeValue, labels, into);
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      var tag = node.tagName.toLowerCase();
      if (DROPPED[tag]) return;
      var copy = null;
      if (BLOCK[tag] || INLINE[tag]) copy = document.createElement(tag);
      else if (tag === "br") copy = document.createElement("br");
      else if (tag === "a" && LINK_ID.test(node.getAttribute("id") || "")) {
        copy = document.createElement("a");
        copy.dataset.token = node.getAttribute("id");
        copy.className = "token-link";
        copy.title = labels[node.getAttribute("id")] || "";
      }
      if (copy === null) {
        importNodes(node, into, labels);
        return;
      }
      importNodes(node, copy, labels);
      into.appendChild(copy);
    });
  }

  function load(editor, text, labels) {
    var parsed = new DOMParser().parseFromString("<!doctype html><body>" + text, "text/html");
    editor.replaceChildren();
    importNodes(parsed.body, editor, labels);
  }

  function serialize(parent) {
    var out = "";
    parent.childNodes.forEach(function (node) {
      if (node.nodeType === Node.TEXT_NODE) {
        out += escapeText(node.nodeValue);
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      var tag = node.tagName.toLowerCase();
      if (node.classList.contains("token-chip")) {
        out += "{" + node.dataset.token + "}";
      } else if (tag === "br") {
        out += "<br>";
      } else if (tag === "a" && LINK_ID.test(node.dataset.token || "")) {
        out += '<a id="' + node.dataset.token + '">' + serialize(node) + "</a>";
      } else if (BLOCK[tag] || INLINE[tag]) {
        out += "<" + tag + ">" + serialize(node) + "</" + tag + ">";
      } else if (tag === "div") {
        out += "<p>" + serialize(node) + "</p>";
      } else {
        out += serialize(node);
      }
    });
    return out;
  }

  function button(label, action) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "button button-small button-secondary workspace-editor-" + action;
    element.textContent = label;
    return element;
  }

  function enhance(textarea, strings) {
    var labels = JSON.parse(textarea.dataset.tokenLabels || "{}");
    var wrapper = document.createElement("div");
    wrapper.className = "workspace-editor";
    var toolbar = document.createElement("div");
    toolbar.className = "workspace-editor-toolbar";
    toolbar.setAttribute("role", "toolbar");
    var bold = button(strings.bold, "bold");
    var italic = button(strings.italic, "italic");
    var link = button(strings.link, "link");
    var markup = button(strings.markup, "markup");
    toolbar.append(bold, italic, link, markup);
    var editor = document.createElement("div");
    editor.className = "workspace-rich";
    editor.contentEditable = "true";
    editor.setAttribute("role", "textbox");
    editor.setAttribute("aria-multiline", "true");
    editor.setAttribute("lang", "es");
    if (textarea.id) {
      var label = document.querySelector("label[for='" + textarea.id + "']");
      if (label) editor.setAttribute("aria-label", label.textContent.trim());
    }
    if (textarea.getAttribute("aria-invalid")) editor.setAttribute("aria-invalid", "true");
    wrapper.append(toolbar, editor);
    textarea.before(wrapper);
    load(editor, textarea.value, labels);
    textarea.hidden = true;

    // The textarea changes only when the translator edits: an untouched segment posts exactly what
    // the form loaded, so it is not taken for an edit.
    function sync() {
      textarea.value = serialize(editor);
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
    }
    editor.addEventListener("input", sync);
    // Pasted text arrives as text: chips and markup come only from the English.
    editor.addEventListener("paste", function (event) {
      event.preventDefault();
      var text = (event.clipboardData || window.clipboardData).getData("text/plain");
      document.execCommand("insertText", false, text);
    });
    function command(name) {
      return function () {
        editor.focus();
        document.execCommand(name, false);
        sync();
      };
    }
    bold.addEventListener("click", command("bold"));
    italic.addEventListener("click", command("italic"));
    link.addEventListener("click", function () {
      // A translation links the English's own targets: the next link of the English not yet placed.
      var placed = {};
      editor.querySelectorAll("a[data-token]").forEach(function (a) { placed[a.dataset.token] = true; });
      var free = Object.keys(labels).filter(function (name) { return LINK_ID.test(name) && !placed[name]; });
      if (!free.length) {
        link.title = strings.noLink;
        return;
      }
      editor.focus();
      var marker = "#workspace-link-" + free[0];
      document.execCommand("createLink", false, marker);
      editor.querySelectorAll("a[href='" + marker + "']").forEach(function (a) {
        a.removeAttribute("href");
        a.dataset.token = free[0];
        a.className = "token-link";
        a.title = labels[free[0]];
      });
      sync();
    });
    markup.addEventListener("click", function () {
      var showMarkup = !textarea.hidden;
      if (showMarkup) {
        load(editor, textarea.value, labels);
        markup.textContent = strings.markup;
      } else {
        markup.textContent = strings.rich;
      }
      textarea.hidden = showMarkup;
      editor.hidden = !showMarkup;
      [bold, italic, link].forEach(function (element) { element.disabled = !showMarkup; });
      (showMarkup ? editor : textarea).focus();
    });
    textarea.workspaceEditor = { reload: function () { load(editor, textarea.value, labels); } };
  }

  function start() {
    var form = document.querySelector("form.workspace-form");
    if (!form) return;
    try {
      document.execCommand("defaultParagraphSeparator", false, "p");
      document.execCommand("styleWithCSS", false, false);
    } catch (error) {
      // Older engines lack these; their defaults still serialize (a <div> becomes a <p>).
    }
    var strings = {
      bold: form.dataset.labelBold,
      italic: form.dataset.labelItalic,
      link: form.dataset.labelLink,
      markup: form.dataset.labelMarkup,
      rich: form.dataset.labelRich,
      noLink: form.dataset.labelNoLink,
    };
    form.querySelectorAll("textarea[data-rich]").forEach(function (textarea) { enhance(textarea, strings); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
