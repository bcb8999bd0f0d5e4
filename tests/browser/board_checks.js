// Checks of the board in a page, for tests/browser/test_board_in_browser.py. Evaluated once in the page,
// the function installs: raOpacity (a node's effective opacity), raContrast (WCAG's contrast ratio of a
// colour at a point of an SVG, against the shapes drawn before it there over the page's backgrounds),
// raTextColours (the contrast of every text under a node), raMarks (the frames of the clickable pieces).

() => {
    const parse = (c) => {
        const m = c && c.match(/rgba?\(([^)]+)\)/);
        if (!m) return null;
        const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
        return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    };
    const opacity = (node, upTo) => {
        let a = 1;
        for (let n = node; n && n.nodeType === 1 && n !== upTo; n = n.parentNode) a *= Number(getComputedStyle(n).opacity);
        return a;
    };
    const over = (top, bottom) => top.slice(0, 3).map((t, i) => t * top[3] + bottom[i] * (1 - top[3]));
    const page = (node) => {
        const layers = [];
        for (let n = node; n && n.nodeType === 1; n = n.parentNode) {
            const c = parse(getComputedStyle(n).backgroundColor);
            if (c && c[3] > 0) { layers.push(c); if (c[3] >= 0.999) break; }
        }
        let back = [255, 255, 255];
        for (const c of layers.reverse()) back = over(c, back);
        return back;
    };
    const group = (node) => {  // the outermost group that fades its contents, if any
        let found = null;
        for (let n = node.parentNode; n && !(n instanceof SVGSVGElement); n = n.parentNode) {
            if (Number(getComputedStyle(n).opacity) < 1) found = n;
        }
        return found;
    };
    const behind = (node, x, y) => {
        const svg = node.ownerSVGElement || node.closest('svg');
        const faded = group(node);
        let back = page(svg.parentNode), outside = back;
        for (const s of svg.querySelectorAll('rect, circle, ellipse, polygon, path')) {
            if (s === node || !(node.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
            if (s.contains(node)) continue;
            const r = s.getBoundingClientRect();
            if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
            const cs = getComputedStyle(s);
            const c = parse(cs.fill);
            if (!c || cs.fill === 'none') continue;
            back = over([c[0], c[1], c[2], c[3] * Number(cs.fillOpacity) * opacity(s)], back);
            if (!faded || !faded.contains(s)) outside = back;
        }
        return {back, outside, faded};
    };
    const lum = (rgb) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    window.raOpacity = (node) => opacity(node);
    window.raContrast = (colour, node, x, y) => {
        const ink = parse(colour);
        const {back, outside, faded} = behind(node, x, y);
        // In a faded group the group is drawn first and then faded as a whole over what is outside it.
        const fg = faded ? over([...ink.slice(0, 3), opacity(faded)], outside)
                         : over([...ink.slice(0, 3), ink[3] * opacity(node)], back);
        return Math.round(ratio(fg, back) * 100) / 100;
    };
    window.raCovered = (node, x, y) => {  // drawn over by a later shape of its picture (the scores' veil and card)
        const svg = node.ownerSVGElement;
        for (const s of svg.querySelectorAll('rect, circle, ellipse, polygon, path')) {
            if (!(node.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING) || node.contains(s)) continue;
            const r = s.getBoundingClientRect();
            const cs = getComputedStyle(s);
            if (x < r.left || x > r.right || y < r.top || y > r.bottom || cs.fill === 'none') continue;
            if (Number(cs.fillOpacity) * opacity(s) >= 0.5 && s.closest('.ra-overlay') && !node.closest('.ra-overlay')) return true;
        }
        return false;
    };
    window.raTextColours = (root) => {
        const out = [];
        for (const t of root.querySelectorAll('svg text')) {
            const box = t.getBoundingClientRect();
            if (!box.width || !box.height || !t.textContent.trim()) continue;
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (window.raCovered(t, x, y)) continue;
            out.push({text: t.textContent.trim().slice(0, 40), ratio: window.raContrast(getComputedStyle(t).fill, t, x, y)});
        }
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const seen = new Set();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            if (!el || seen.has(el) || !n.textContent.trim() || el.closest('svg, style, script')) continue;
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
            seen.add(el);
            const ink = parse(getComputedStyle(el).color);
            const back = page(el);
            out.push({text: n.textContent.trim().slice(0, 40), ratio: Math.round(ratio(over([...ink.slice(0, 3), ink[3] * opacity(el)], back), back) * 100) / 100});
        }
        return out;
    };
    // Each outermost clickable piece of the table boards, with its frame: drawn, its stroke's width and the
    // contrast of its colour against what is behind it; and the frames outside any piece.
    window.raMarks = () => {
        const out = {pieces: [], stray: 0, boards: 0};
        for (const board of document.querySelectorAll('.ra-table-board svg')) {
            out.boards += 1;
            const pieces = [...board.querySelectorAll('[data-action],[data-ui]')];
            for (const g of pieces) {
                if (g.parentNode.closest('[data-action],[data-ui]')) continue;  // a "-1" label inside a framed pile
                const mark = [...g.children].find((n) => n.classList.contains('ra-mark'));
                const entry = {piece: g.getAttribute('data-action') || g.getAttribute('data-ui'), mark: !!mark};
                if (mark) {
                    const cs = getComputedStyle(mark);
                    const box = mark.getBoundingClientRect();
                    entry.width = parseFloat(cs.strokeWidth);
                    entry.drawn = box.width > 0 && cs.visibility !== 'hidden' && cs.stroke !== 'none' && window.raOpacity(mark) === 1;
                    entry.ratio = window.raContrast(cs.stroke, mark, box.left + 1, box.top + box.height / 2);
                }
                out.pieces.push(entry);
            }
            out.stray += [...board.querySelectorAll('.ra-mark')].filter((m) => !m.closest('[data-action],[data-ui]')).length;
        }
        return out;
    };
}
