"""The long report check reads the prefetch RabbitMQ applies to the worker's task consumer inside the node."""
from celerylab.lessons.l08_rabbitmq import check_prefetch


def test_the_erlang_samples_the_acknowledging_consumers_of_the_host_until_told_to_stop():
    code = check_prefetch.sampler("check-3", 1234, "/w/prefetch")
    assert 'consumers_all(<<"check-3">>)' in code and "ack_required, C) =:= true" in code
    assert "> 1234" in code and 'filelib:is_file("/w/prefetch.stop")' in code and code.endswith("Loop([]).")


def test_a_consumer_s_limit_is_the_smaller_of_its_own_and_its_channel_s_that_is_set():
    assert check_prefetch.limits("[{0,4}]\n") == [4]  # Celery on RabbitMQ: a global basic.qos
    assert check_prefetch.limits("[{0,1},{0,4}]") == [1, 4]
    assert check_prefetch.limits("[{2,4},{0,0}]") == [0, 2]
    assert check_prefetch.limits("{badrpc,nodedown}") == []


def test_the_lowest_limit_set_is_judged_and_no_reading_is_none():
    assert check_prefetch.lowest([4]) == 4
    assert check_prefetch.lowest([1, 4]) == 1  # lowered behind Celery's back, if only for a while
    assert check_prefetch.lowest([0, 4]) == 4  # a worker's consumer before its first basic.qos
    assert check_prefetch.lowest([0]) is None and check_prefetch.lowest([]) is None
    assert check_prefetch.lowest(None) is None


def test_a_cli_that_never_answers_leaves_no_reading(tmp_path):
    class Host:
        name = "check-1"

        def ctl(self, *args, timeout):
            raise TimeoutError

    with check_prefetch.BrokerPrefetch(Host(), tmp_path / "prefetch") as prefetch:
        pass
    assert prefetch.lowest() is None and (tmp_path / "prefetch.stop").exists()


def test_the_node_s_answer_is_read_once_the_check_stops_it(tmp_path):
    class Host:
        name = "check-1"

        def ctl(self, *args, timeout):
            assert args[0] == "eval" and 'consumers_all(<<"check-1">>)' in args[1]
            return "[{0,4}]\n"

    with check_prefetch.BrokerPrefetch(Host(), tmp_path / "prefetch") as prefetch:
        pass
    assert prefetch.lowest() == 4
