"""The networks beside the compute fabric (storage, in-band or converged north-south, out-of-band management),
sized as NVIDIA's reference architectures size them. Pure Python; ``plan.py`` states each rule and its source
(``sources.py``), ``model.py`` the plans it returns, ``cabling.py`` their rows of the cabling list."""
