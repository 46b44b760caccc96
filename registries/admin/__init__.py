from . import registry  # noqa: F401 - registers the model admins
