// Loaded in <head> of every site page, from this server (the Content-Security-Policy allows no inline script):
// mark the page as scripted before it paints, and switch the language as soon as another one is chosen.
document.documentElement.classList.add("js");
document.addEventListener("change", function (event) {
  if (event.target.id === "lang-select" && event.target.form) {
    event.target.form.submit();
  }
});

// A radio group saves when a choice is made, not while the arrow keys move through it: a change that an arrow key
// caused is held back from the form's live update (htmx listens for "change" on the form), and sent once focus
// leaves the group or Space/Enter confirms the choice. Clicks and taps save at once, as before.
(function () {
  var arrowed = null;
  function commit(form) {
    delete form.dataset.pendingRadio;
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.addEventListener("keydown", function (event) {
    var t = event.target;
    if (t.type !== "radio" || !t.form) return;
    if (/^Arrow/.test(event.key)) {
      arrowed = t.form;
      setTimeout(function () { arrowed = null; }, 0);
    } else if ((event.key === " " || event.key === "Enter") && t.form.dataset.pendingRadio === t.name) {
      event.preventDefault();
      commit(t.form);
    }
  }, true);
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t.type === "radio" && t.form && t.form === arrowed) {
      event.stopImmediatePropagation();
      t.form.dataset.pendingRadio = t.name;
    }
  }, true);
  document.addEventListener("focusout", function (event) {
    var t = event.target, next = event.relatedTarget;
    if (t.type !== "radio" || !t.form || t.form.dataset.pendingRadio !== t.name) return;
    if (!next || next.name !== t.name || next.form !== t.form) commit(t.form);
  });
})();

// A refused form's error summary (configurator/partials/_forms.html, error_summary) takes the focus when the page
// loads: the browser scrolls to it and a screen reader reads it, wherever the form's first error is.
document.addEventListener("DOMContentLoaded", function () {
  var summary = document.getElementById("error-summary");
  if (summary) summary.focus();
});
