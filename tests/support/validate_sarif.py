#!/usr/bin/env python3
"""Validate a SARIF log against a JSON schema: validate_sarif.py SCHEMA LOG.

Exit 0 when valid; 1 with one line per violation when not; 3 when the
jsonschema module (Debian's python3-jsonschema) is not installed.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (tools/install-deps installs it)", file=sys.stderr)
    sys.exit(3)


def main(schema_path, log_path):
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(log_path, encoding="utf-8") as f:
        log = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(log), key=lambda e: [str(p) for p in e.absolute_path])
    for e in errors[:50]:
        print("/" + "/".join(str(p) for p in e.absolute_path) + ": " + e.message)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
