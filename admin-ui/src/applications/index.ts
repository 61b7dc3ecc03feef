/** The `applications` console resource (server: `src/admin/api/resources/applications.rs`). */
import BallotIcon from '@mui/icons-material/Ballot';
import { ApplicationList, ApplicationShow } from './pages';

export default { list: ApplicationList, show: ApplicationShow, icon: BallotIcon };
