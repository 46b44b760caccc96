"""Who you are: a token for a username and password, and the user a request is made as."""

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ErrorSerializer, error_body
from core.api_fields import StrictInput, TextField


class CurrentUserSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()


class CredentialsSerializer(StrictInput, serializers.Serializer[Any]):
    username = TextField(max_length=150, trim_whitespace=False)
    password = TextField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenView(APIView):
    """A username and password exchanged for the person's API token (the same token each
    time). Wrong credentials are a 401."""

    authentication_classes: list[Any] = []  # a login takes no session, so no CSRF either
    permission_classes = [AllowAny]

    @extend_schema(
        request=CredentialsSerializer,
        responses={
            200: TokenSerializer,
            401: OpenApiResponse(ErrorSerializer, description="Wrong username or password."),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request=request._request, **serializer.validated_data)
        if user is None or not user.is_active:
            return Response(
                error_body(401, "The username or password is not right."),
                status=401,
                headers={"WWW-Authenticate": 'Token realm="api"'},
            )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class CurrentUserView(APIView):
    """Who the request is authenticated as (session or token)."""

    serializer_class = CurrentUserSerializer

    def get(self, request: Request) -> Response:
        return Response(CurrentUserSerializer(request.user).data)
