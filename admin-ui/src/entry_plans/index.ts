/** The `entry_plans` console resource (server: `src/admin/api/resources/entry_plans.rs`). */
import RequestQuoteIcon from '@mui/icons-material/RequestQuote';
import { EntryPlanCreate, EntryPlanEdit, EntryPlanList, EntryPlanShow } from './pages';

export default { list: EntryPlanList, show: EntryPlanShow, edit: EntryPlanEdit, create: EntryPlanCreate, icon: RequestQuoteIcon };
