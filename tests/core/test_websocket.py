import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.test import Client

from config.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1")


def _headers_for(client: Client) -> list[tuple[bytes, bytes]]:
    cookie = "; ".join(f"{key}={morsel.value}" for key, morsel in client.cookies.items())
    return [ORIGIN, (b"cookie", cookie.encode())]


def test_the_channel_layer_is_redis() -> None:
    assert isinstance(get_channel_layer(), RedisChannelLayer)


@pytest.mark.django_db(transaction=True)
async def test_logged_in_user_round_trips_through_the_redis_layer(django_user_model) -> None:
    from asgiref.sync import sync_to_async

    user = await sync_to_async(django_user_model.objects.create_user)(
        "ws-user", password="pw-123456"
    )
    client = Client()
    await sync_to_async(client.force_login)(user)
    communicator = WebsocketCommunicator(application, "/ws/chat/", headers=_headers_for(client))

    connected, _ = await communicator.connect(timeout=5)
    assert connected
    await communicator.send_json_to({"type": "ping", "payload": "marco"})
    assert await communicator.receive_json_from(timeout=5) == {"event": "pong", "payload": "marco"}
    await get_channel_layer().group_send(
        f"user.{user.pk}", {"type": "ingestion.progress", "job": 7, "done": 1, "total": 3}
    )
    progress = await communicator.receive_json_from(timeout=5)
    assert progress["event"] == "ingestion_progress"
    assert (progress["job"], progress["done"], progress["total"]) == (7, 1, 3)
    await communicator.send_json_to({"type": "nonsense"})
    assert (await communicator.receive_json_from(timeout=5))["event"] == "error"
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_anonymous_user_is_refused() -> None:
    communicator = WebsocketCommunicator(application, "/ws/chat/", headers=[ORIGIN])

    connected, code = await communicator.connect(timeout=5)

    assert not connected
    assert code == 4401


async def test_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/chat/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=5)
    assert not connected
