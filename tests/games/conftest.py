import pytest
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel-layer instance per test: the cached one keeps asyncio locks bound to the
    event loop of an earlier async test (pytest-asyncio gives each test its own loop)."""
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    yield
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
