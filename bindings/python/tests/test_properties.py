"""pmc.Properties: properties files read by libpmc (pmc_properties_*), as
`pmc check --property-file` reads them, and their errors."""

import os
import tempfile
import unittest

import pmc

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples")


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


if __name__ == "__main__":
    unittest.main()
