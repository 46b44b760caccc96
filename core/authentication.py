"""Token authentication that checks a token's form before looking it up: a key that could
never be a token (the wrong length, a NUL) is refused as invalid credentials, a 401,
instead of reaching the database."""

import re
from typing import Any

from rest_framework import authentication, exceptions

TOKEN_KEY = re.compile(r"[0-9a-f]{40}")


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if not TOKEN_KEY.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
