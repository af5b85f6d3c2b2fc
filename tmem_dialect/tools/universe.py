"""The xdsl.universe entry point: makes plain xdsl-opt know our dialects, passes and targets."""

from xdsl.universe import Universe

from tmem_dialect.dialects import project_dialects
from tmem_dialect.tools.registry import project_passes, project_targets

TMEM_UNIVERSE = Universe(
    all_dialects=project_dialects(),
    all_passes=project_passes(),
    all_targets=project_targets(),
)
