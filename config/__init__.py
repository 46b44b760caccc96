import pymysql

from .celery import app as celery_app

# Django's MySQL backend imports MySQLdb; PyMySQL stands in for it so that no C client
# library is needed on a fresh machine. Django checks the reported mysqlclient version.
pymysql.version_info = (2, 2, 1, "final", 0)
pymysql.install_as_MySQLdb()

__all__ = ["celery_app"]
