"""The grading job's kernel is ready once it answered kernel_info and its IOPub spoke: no wait for IOPub silence."""
from __future__ import annotations

import asyncio
from queue import Empty

import nbformat
import pytest

from celerylab.grader.sandbox.execute import LimitedClient, ReadyKernelClient


class Channel:
    def __init__(self, messages):
        self.messages, self.reads = list(messages), 0

    async def get_msg(self, timeout=None):
        self.reads += 1
        if not self.messages:
            raise Empty
        return self.messages.pop(0)


class Kernel:
    """What wait_for_ready uses of a client: a kernel that answers the second kernel_info, IOPub busy after it."""

    def __init__(self, alive=True):
        self.requests, self.handled, self.alive = 0, None, alive
        self.shell_channel = Channel([{"msg_type": "status"}, {"msg_type": "kernel_info_reply", "content": {}}])
        self.iopub_channel = Channel([{"msg_type": "status"}, {"msg_type": "status"}, {"msg_type": "status"}])

    def kernel_info(self):
        self.requests += 1

    def _handle_kernel_info_reply(self, reply):
        self.handled = reply

    async def _async_is_alive(self):
        return self.alive


def test_the_kernel_is_ready_at_its_first_iopub_message_after_the_reply_without_reading_until_silence():
    kernel = Kernel()
    asyncio.run(ReadyKernelClient.wait_for_ready(kernel, timeout=30))
    assert kernel.handled == {"msg_type": "kernel_info_reply", "content": {}}
    assert kernel.requests == 2  # asked again after a message that was not the reply
    assert kernel.iopub_channel.reads == 1  # jupyter_client's own wait reads on until 0.2 s of silence
    assert len(kernel.iopub_channel.messages) == 2  # left for nbclient, which skips what no cell asked for


def test_a_kernel_that_died_before_replying_is_an_error():
    kernel = Kernel(alive=False)
    kernel.shell_channel.messages = []
    with pytest.raises(RuntimeError, match="died"):
        asyncio.run(ReadyKernelClient.wait_for_ready(kernel, timeout=30))


def test_the_grading_notebook_client_starts_its_kernels_with_that_client():
    client = LimitedClient(nbformat.v4.new_notebook(), 1024, kernel_name="python3")
    assert client.create_kernel_manager().client_factory is ReadyKernelClient
