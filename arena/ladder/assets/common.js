// Helpers every ladder page shares. Text a bot or organiser chose is set as textContent.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
const entrantLink = label => el("a", { href: "/entrant/" + encodeURIComponent(label.split("@")[0]) }, label);
const matchLink = id => el("a", { href: "/match/" + encodeURIComponent(id) }, id);
