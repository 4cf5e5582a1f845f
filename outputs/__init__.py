"""Outputs: every file a validated design gives (the cabling CSV, the pictures, and the parts a document embeds),
behind one service every door calls (outputs.services).

A floor of its own, between the quotes and the configurator: the doors and the quotes import it; it imports the
configurator's services, the engines and the design contract. ``outputs.formats`` holds one module per format,
``outputs.registry`` names them by file name; ``outputs.pictures`` draws the pictures (no Django),
``outputs.picture_set`` gives the pictures of one result as the wizard and the offer show them, ``outputs.svgpdf``
draws an SVG picture into a PDF (with the fonts of ``outputs.pdffonts``). Importing this package loads nothing.
"""
