# The DOM chromium built (its --dump-dom output), for the page tests: elements with their classes,
# attributes and the classes of their ancestors; text with its element.
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements, self.texts = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        parents = [c for _, cs, _ in self.stack for c in cs]
        self.elements.append((tag, classes, attrs, parents))
        if tag not in VOID:
            self.stack.append((tag, classes, attrs))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.stack:
            self.texts.append((self.stack[-1][0], data))

    def count(self, tag, cls=None, parent=None):
        return sum(1 for t, cs, _, ps in self.elements
                   if t == tag and (cls is None or cls in cs) and (parent is None or parent in ps))


def parse(path):
    dom = Dom()
    dom.feed(open(path, encoding="utf-8").read())
    return dom
