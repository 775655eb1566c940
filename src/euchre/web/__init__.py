"""The web table (`euchre serve`): a FastAPI server, its storage, and the page.

Importing this package needs nothing beyond the standard library; the server
itself (:mod:`euchre.web.app`) needs the ``web`` extra.
"""
