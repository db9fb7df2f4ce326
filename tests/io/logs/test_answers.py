"""io/logs/_answers.py: the options a log format reads."""
from evalbars.io import logs
from evalbars.io.logs._answers import Options, reject


def test_every_log_format_reads_a_metric():
    """The list of formats metric= applies to was written out, without the new formats;
    every format reads metric= (and refuses a metric its logs lack), so none is listed."""
    for fmt in logs.FORMATS:
        assert reject(fmt, Options(metric="anything"), ()) is None
