"""The toolkit's one interface to the teaching module, under public names: the steps that no public
function offers as ``helpers/runs/`` needs them (the test for every size and the grid's p-value
alone, a cluster bootstrap of users' totals already made, the largest regressions without checking
every query ID again) and the parts of figures and records it shares. Elsewhere the toolkit calls
public functions, never a private name but ``_checks``'s rules (tests/test_init.py holds this)."""

# ruff: noqa: F401  (this module re-exports private functions under public names)

from .plots import _axes as axes
from .plots import _interval_row as interval_row
from .plots import _rows_against_zero as rows_against_zero
from .plots import _text as figure_text
from .records import _read_record as read_record
from .resampling import _cluster_bootstrap as cluster_bootstrap
from .significance import _grid_tails as grid_tails
from .significance import _randomization_test as randomization_test
from .slices import _largest_regressions as largest_regressions
