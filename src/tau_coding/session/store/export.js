// Tau session export: show the path to a chosen entry, filter the tree by a search.
(function () {
  "use strict";
  var sections = {};
  document.querySelectorAll("#entries > section").forEach(function (s) { sections[s.dataset.id] = s; });
  var items = document.querySelectorAll("#tree li");

  function pathTo(id) {
    var ids = {};
    var guard = 0;
    while (id && sections[id] && !ids[id] && guard++ < 1000000) {
      ids[id] = true;
      id = sections[id].dataset.parent;
    }
    return ids;
  }

  function show(id) {
    var ids = pathTo(id);
    Object.keys(sections).forEach(function (key) { sections[key].classList.toggle("hidden", !ids[key]); });
    items.forEach(function (li) {
      li.classList.toggle("on-path", !!ids[li.dataset.id]);
      li.classList.toggle("selected", li.dataset.id === id);
    });
    document.body.dataset.shown = id || "";
  }

  document.getElementById("tree").addEventListener("click", function (event) {
    var li = event.target.closest("li");
    if (!li) return;
    event.preventDefault();
    show(li.dataset.id);
    sections[li.dataset.id].scrollIntoView({ block: "nearest" });
  });

  document.getElementById("search").addEventListener("input", function (event) {
    var query = event.target.value.toLowerCase();
    items.forEach(function (li) {
      var text = (li.title + " " + sections[li.dataset.id].textContent).toLowerCase();
      li.classList.toggle("no-match", query !== "" && text.indexOf(query) < 0);
    });
  });

  var start = decodeURIComponent(location.hash.replace(/^#(e-)?/, ""));
  show(sections[start] ? start : document.body.dataset.leaf);
  var search = new URLSearchParams(location.search).get("q");
  if (search) {
    var box = document.getElementById("search");
    box.value = search;
    box.dispatchEvent(new Event("input"));
  }
  document.body.dataset.ready = "1";
})();
