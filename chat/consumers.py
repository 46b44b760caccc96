"""The chat websocket. Authenticated by Channels' session middleware; each connection
joins its user's group so that server-side work can reach every open tab."""

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

# Application close codes (4000-4999): the client tells a refusal from a network drop.
CLOSE_UNAUTHENTICATED = 4401


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


class ChatConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"event": "error", "message": "unknown message type"})
            return
        # Round trip through the channel layer, as server-side events will travel.
        await self.channel_layer.group_send(
            self.group, {"type": "chat.pong", "payload": content.get("payload")}
        )

    async def chat_pong(self, event: dict[str, Any]) -> None:
        await self.send_json({"event": "pong", "payload": event.get("payload")})

    async def ingestion_progress(self, event: dict[str, Any]) -> None:
        """An upload of this user's moved on: relayed for the progress bar."""
        payload = {key: value for key, value in event.items() if key != "type"}
        await self.send_json({"event": "ingestion_progress", **payload})
