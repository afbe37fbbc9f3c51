"""A marimo app with courtlearn's card table (tests/browser/test_frontends.py runs it).

The deal is set up from Python: South (the viewer) is to play to a diamond lead,
holding diamonds, so a diamond is a legal card and the A♠ an illegal one.
"""
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import courtlearn as cl
    from courtlearn.widgets import CardTable

    hands = [
        "AS KS QS JS 2C  5D 6D 7D 8D  10S 9S 8S 7S",   # South (the viewer)
        "AC KC QC JC 10C  9C 8C 7C 6C  5C 4C 3C KD",   # East
        "AH KH QH JH 10H  9H 8H 7H 6H  5H 4H 3H 2H",   # North
        "AD QD JD 10D 9D  4D 3D 2D 6S  5S 4S 3S 2S",   # West
    ]
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=hands, dealer=3)
    deal.apply("call:S 2C AC 2H 2D KD 3H AD")
    table = mo.ui.anywidget(CardTable(deal, seat=0, animate=False))
    table
    return


if __name__ == "__main__":
    app.run()
