"""The cost model: the per-core pipe timelines (``timing``), the cost report of a launch
(``report``) and the cost-only mode that times a launch without its data (``cost_only``)."""
