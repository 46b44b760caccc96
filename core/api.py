from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class CurrentUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()


class CurrentUserView(APIView):
    """Who the request is authenticated as (session or token)."""

    serializer_class = CurrentUserSerializer

    def get(self, request: Request) -> Response:
        return Response(CurrentUserSerializer(request.user).data)
