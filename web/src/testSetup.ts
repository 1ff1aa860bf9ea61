// The unit tests' setup. findBy* and waitFor wait for a fact (an element, a call) up to 10 s instead of Testing
// Library's 1 s: on a busy 2-core CI machine a first render with its fetch can take over a second, and a test that
// waits on a fact should fail only when the fact never comes.
import { configure } from "@testing-library/react";

configure({ asyncUtilTimeout: 10_000 });
