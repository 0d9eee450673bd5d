"""Issue 36 item 7: any interpreter. An interpreter without PyGObject is told, on `import
xrt`, which interpreter it is and how to get a working one; the README's example runs from a
venv made with --system-site-packages."""
import os
import subprocess
import sys

from conftest import net_path, raw_path

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(os.path.dirname(HERE), "example_forward.py")


def test_interpreter_without_pygobject_is_told_what_to_do():
    # -S: no site-packages, so neither gi nor numpy (as a pyenv/conda interpreter)
    r = subprocess.run([sys.executable, "-S", "-c", "import xrt"], capture_output=True, text=True,
                       env=dict(os.environ))
    assert r.returncode != 0
    assert "PyGObject" in r.stderr and sys.executable in r.stderr
    assert "--system-site-packages" in r.stderr and "/usr/bin/python3" in r.stderr


def test_example_runs_from_a_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True)
    python = venv / "bin" / "python3"
    r = subprocess.run([str(python), EXAMPLE, net_path("tiny"), raw_path("tiny")], capture_output=True, text=True,
                       env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert "outputs" in r.stdout
    # it is the venv's interpreter that ran
    r = subprocess.run([str(python), "-c", "import sys, xrt; print(sys.prefix)"], capture_output=True, text=True,
                       env=dict(os.environ))
    assert r.returncode == 0 and r.stdout.strip() == str(venv)
