"""Markdown tables of the analysis reports, parsed: the tests compare cells, not the padding to_markdown adds."""


def cells(line):
    """The stripped cells of one table line such as '| a | b |' (escaped pipes kept)."""
    parts, cur, esc = [], "", False
    for ch in line.strip().strip("|"):
        if esc:
            cur += ch
            esc = False
        elif ch == "\\":
            cur += ch
            esc = True
        elif ch == "|":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def md_rows(text):
    """Every row (header and body, not the |---| rules) of every Markdown table of text, as lists of cells."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            c = cells(line)
            if not all(x and set(x) <= set("-:") for x in c):
                rows.append(c)
    return rows


def row(line):
    """The cells of a row written as in Markdown: row('| a | 1.5 |') == ['a', '1.5']."""
    return cells(line)
