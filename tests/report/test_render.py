"""report/text/render.py: the text and Markdown reports' headers."""
import pytest

import evalbars
from evalbars.report.text.render import render


@pytest.mark.parametrize("full, baseline, heading", [
    ("full", "base", "full system, baseline base,"),
    ("model_b", "baseline", "full system model_b, baseline,"),
])
def test_the_ablation_header_names_each_role_once(full, baseline, heading):
    """The header read 'full system full' where the statement says 'the full system'."""
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv("examples/lesson_pair.csv").rename(
        columns={"model_a": baseline, "model_b": full})
    frame["variant"] = frame[full].sample(frac=1, random_state=3).to_numpy()
    doc = evalbars.ablation(frame, full=full, baseline=baseline, n_resamples=200).to_dict()
    for kind in ("text", "markdown"):
        first = render(doc, kind).splitlines()[0]
        assert heading in first, first

