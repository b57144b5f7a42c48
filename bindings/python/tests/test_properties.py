"""pmc.Properties: properties files read by libpmc (pmc_properties_*), as
`pmc check --property-file` reads them, and their errors."""

import os
import tempfile
import unittest

import pmc

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples")
JANI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data", "jani")

BOUNDED_JANI = """{"jani-version": 1, "name": "m", "type": "dtmc",
  "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1},
                 "initial-value": 0}],
  "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
                "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 1}]}]}]}],
  "system": {"elements": [{"automaton": "a"}]},
  "properties": [
    {"name": "bounded", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
      "values": {"op": "Pmin", "exp": {"op": "U", "left": true, "right": {"op": "=", "left": "x", "right": 1},
        "reward-bounds": [{"exp": "x", "accumulate": ["steps"], "bounds": {"lower": 1, "upper": 3}}]}}}},
    {"name": "plain", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"},
      "values": {"op": "Pmin", "exp": {"op": "U", "left": true, "right": {"op": "=", "left": "x", "right": 1}}}}}]}"""


class PropertiesTest(unittest.TestCase):
    def test_read_iterates_names_and_texts(self):
        props = pmc.Properties.read(os.path.join(EXAMPLES, "consensus", "consensus.props"))
        self.assertEqual(len(props), 5)
        pairs = list(props)
        self.assertEqual(pairs[0], ("disagree", 'Pmax=? [ F "finished" & !"agree" ]'))
        self.assertEqual(pairs[4], ("", 'Pmax=? [ F<=20 "finished" ]'))  # const T = 20 put in
        self.assertEqual(props.names[:2], ["disagree", "all_ones"])
        self.assertEqual(props.line(0), 7)

    def test_texts_go_to_check(self):
        props = pmc.Properties.parse('const int N;\n"six": P=? [ F "six" ]\nP=? [ F<=N "done" ]\n',
                                     constants={"N": 3})
        self.assertEqual(props[1], ("", 'P=? [ F<=3 "done" ]'))
        with pmc.load(os.path.join(EXAMPLES, "die", "die.tra")) as model:
            name, text = props[0]
            self.assertEqual(name, "six")
            self.assertAlmostEqual(model.check(text).value, 1 / 6, delta=1e-6)

    def test_errors_name_the_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.props")
            with open(path, "w") as f:
                f.write('P=? [ F "a" ]\nconst int N;\nP=? [ F<=N "a" ]\n')
            with self.assertRaises(pmc.ParseError) as caught:
                pmc.Properties.read(path)
            self.assertIn(path + ":3: column 10: constant 'N' (int, " + path + ":2) has no value", str(caught.exception))
            self.assertEqual(pmc.Properties.read(path, constants="N=4").texts[1], 'P=? [ F<=4 "a" ]')
        with self.assertRaises(pmc.FileError):
            pmc.Properties.read("/nonexistent/missing.props")
        with self.assertRaises(pmc.ParseError) as caught:
            pmc.Properties.parse('P=? [ F "a ]', source_name="typed")
        self.assertIn("typed:1: unterminated string", str(caught.exception))
        # A file's labels and formulas are put into the properties that use them.
        self.assertEqual(pmc.Properties.parse('label "a" = x=1;\nP=? [ F "a" ]').texts, ["P=? [ F x=1 ]"])
        with self.assertRaises(pmc.ParseError) as caught:
            pmc.Properties.parse('formula f = ;\nP=? [ F f ]')
        self.assertIn("<text>:1: formula f has no body", str(caught.exception))
        with self.assertRaises(pmc.InvalidArgumentError):
            pmc.Properties.parse('P=? [ F "a" ]', constants="N")
        with self.assertRaises(TypeError):
            pmc.Properties.parse(None)

    def test_a_jani_models_own_properties(self):
        path = os.path.join(JANI, "consensus.jani")
        props = pmc.Properties.read(path)
        self.assertEqual(props.names[0], "disagree")
        self.assertEqual(props[0], ("disagree", 'Pmax=? [ F "finished" & !"agree" ]'))
        self.assertIsNone(props.error(0))
        with pmc.build_prism(path, "K=2") as model:
            self.assertAlmostEqual(model.check(props[0][1]).value, 0.108333, delta=1e-5)
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bounded.jani")
            with open(bad, "w") as f:
                f.write(BOUNDED_JANI)
            props = pmc.Properties.read(bad)
            self.assertEqual(props.names, ["bounded", "plain"])
            self.assertIsInstance(props.error(0), pmc.UnsupportedError)
            self.assertIn('properties[0] "bounded": a reward bound must have one side', str(props.error(0)))
            with self.assertRaises(pmc.UnsupportedError):
                props[0]
            self.assertEqual(props[1], ("plain", "P=? [ true U x = 1 ]"))


if __name__ == "__main__":
    unittest.main()
