"""Run a VM test script on CPython too, so a test can compare the two outputs exactly."""


def run_on_cpython(code):
    """Exec ``code`` here with a ``print`` that collects what the VM's would print."""
    lines = []

    def collect(*values):
        lines.append(" ".join(str(value) for value in values))

    exec(code, {"print": collect})
    return "\n".join(lines) + "\n"
