// Loaded in <head> of every site page, from this server (the Content-Security-Policy allows no inline script):
// mark the page as scripted before it paints, and switch the language as soon as another one is chosen.
document.documentElement.classList.add("js");
document.addEventListener("change", function (event) {
  if (event.target.id === "lang-select" && event.target.form) {
    event.target.form.submit();
  }
});
