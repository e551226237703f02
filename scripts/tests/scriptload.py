"""Loads a script of scripts/ that has no .py suffix (match, compare) as a
module, so tests can call its functions and main() in-process."""

import importlib.machinery
import importlib.util
import os

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def load_script(name: str):
    """scripts/<name> as a module named `<name>_cli`."""
    loader = importlib.machinery.SourceFileLoader(f"{name}_cli", os.path.join(SCRIPTS, name))
    spec = importlib.util.spec_from_loader(f"{name}_cli", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
