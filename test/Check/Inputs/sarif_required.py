#!/usr/bin/env python3
"""Checks a SARIF log against what the SARIF 2.1.0 schema requires of the parts tilecc writes
(required properties, their JSON types, the value constraints); prints `ok` or each problem."""
import json
import sys

problems = []


def need(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        problems.append("%s: missing '%s'" % (where, key))
        return None
    if not isinstance(obj[key], kind):
        problems.append("%s.%s: expected %s" % (where, key, kind.__name__))
        return None
    return obj[key]


def message(obj, where):
    m = need(obj, "message", dict, where)
    if m is not None and "text" not in m and "id" not in m:
        problems.append(where + ".message: needs text or id")


def physical(loc, where):
    p = need(loc, "physicalLocation", dict, where)
    if p is None:
        return
    a = need(p, "artifactLocation", dict, where + ".physicalLocation")
    if a is not None:
        need(a, "uri", str, where + ".artifactLocation")
    r = p.get("region")
    if r is not None:
        for key in ("startLine", "startColumn", "endLine", "endColumn"):
            if key in r and (not isinstance(r[key], int) or r[key] < 1):
                problems.append("%s.region.%s: must be an integer >= 1" % (where, key))


log = json.load(open(sys.argv[1]))
if need(log, "version", str, "log") not in (None, "2.1.0"):
    problems.append("log.version: must be 2.1.0")
for i, run in enumerate(need(log, "runs", list, "log") or []):
    w = "runs[%d]" % i
    tool = need(run, "tool", dict, w)
    driver = need(tool, "driver", dict, w + ".tool") if tool is not None else None
    rules = []
    if driver is not None:
        need(driver, "name", str, w + ".tool.driver")
        rules = driver.get("rules", [])
        for j, rule in enumerate(rules):
            need(rule, "id", str, "%s.rules[%d]" % (w, j))
            if "helpUri" in rule and "://" not in rule["helpUri"]:
                problems.append("%s.rules[%d].helpUri: not a URI" % (w, j))
    if run.get("columnKind") not in (None, "utf16CodeUnits", "unicodeCodePoints"):
        problems.append(w + ".columnKind: not a column kind")
    for base, value in run.get("originalUriBaseIds", {}).items():
        uri = value.get("uri", "")
        if not uri.endswith("/"):
            problems.append("%s.originalUriBaseIds.%s: a base URI must end with '/'" % (w, base))
    for j, result in enumerate(need(run, "results", list, w) or []):
        rw = "%s.results[%d]" % (w, j)
        message(result, rw)
        if result.get("level") not in (None, "none", "note", "warning", "error"):
            problems.append(rw + ".level: not a level")
        index = result.get("ruleIndex")
        if index is not None and not (0 <= index < len(rules) and
                                      rules[index]["id"] == result.get("ruleId")):
            problems.append(rw + ".ruleIndex: does not name ruleId in the rule table")
        for k, loc in enumerate(result.get("locations", [])):
            physical(loc, "%s.locations[%d]" % (rw, k))
        for k, loc in enumerate(result.get("relatedLocations", [])):
            physical(loc, "%s.relatedLocations[%d]" % (rw, k))
            if "id" in loc and (not isinstance(loc["id"], int) or loc["id"] < 0):
                problems.append("%s.relatedLocations[%d].id: must be >= 0" % (rw, k))
            message(loc, "%s.relatedLocations[%d]" % (rw, k))
    for j, inv in enumerate(run.get("invocations", [])):
        need(inv, "executionSuccessful", bool, "%s.invocations[%d]" % (w, j))
print("\n".join(problems) if problems else "ok")
sys.exit(1 if problems else 0)
