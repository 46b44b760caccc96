"""Deterministic demo data for the warehouse: the same seed always gives the same rows."""

from .assets import generate_asset_catalog, generate_assets
from .billing import generate_billing
from .catalog import generate_catalog
from .crews import generate_crews
from .customers import generate_customer_agreements, generate_customers
from .inspections import generate_inspections
from .people import generate_staff, generate_users
from .safety import generate_safety
from .services import generate_services
from .system import generate_system
from .work import generate_work_orders
from .world import AS_OF, END, START, Dataset, World

DEFAULT_SEED = 20241101

# Each step only reads what earlier steps made.
STEPS = (
    generate_staff,
    generate_customers,
    generate_users,
    generate_asset_catalog,
    generate_catalog,
    generate_assets,
    generate_customer_agreements,
    generate_work_orders,
    generate_crews,
    generate_services,
    generate_inspections,
    generate_safety,
    generate_billing,
    generate_system,
)


def generate(seed: int = DEFAULT_SEED) -> Dataset:
    """Rows per table, as tuples in the table's column order."""
    world = World(seed)
    for step in STEPS:
        step(world)
    return world.dataset()


__all__ = ["AS_OF", "DEFAULT_SEED", "END", "START", "Dataset", "generate"]
