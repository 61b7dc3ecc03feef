/** The `entries` console resource (server: `src/admin/api/resources/entries.rs`). */
import AssignmentIcon from '@mui/icons-material/Assignment';
import { EntryList, EntryShow } from './pages';

export default { list: EntryList, show: EntryShow, icon: AssignmentIcon };
