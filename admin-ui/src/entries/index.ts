/** The `entries` console resource (server: `src/admin/api/resources/entries.rs`). */
import { EntryList, EntryShow } from './pages';

export default { list: EntryList, show: EntryShow };
