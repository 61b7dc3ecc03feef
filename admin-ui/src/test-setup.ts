/**
 * Test set-up shared by every test file of this workspace: Testing Library's `findBy…` and
 * `waitFor` wait up to 30 s instead of 1 s. CI runs these tests beside the cargo build on two
 * cores, where a first render of the console took longer than a second (stop 37's CI failed on
 * it, and stop 43's at 10 s on a loaded host: a first console render took 3.5 s here under
 * load, and hosts run up to 4× slower); a test that waits for what the user would see still
 * fails when it never appears.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 30_000 });
