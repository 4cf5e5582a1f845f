"""The intake: a raw design document made the typed, well-formed design every engine reads.

``parse`` checks the document's shape against the design model (design.model) and names every bad field by its
path (``design_hash`` is the document's canonical hash, printed on quote receipts); ``references`` checks its part
numbers against the catalogue view. Both raise DesignInputError, which every door answers as a refusal that names
the fields; a design that passes both is well-formed, and the engines report everything else as findings. The
intake reads the design contract and the catalogue view alone: no other engine.
"""
