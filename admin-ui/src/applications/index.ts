/** The `applications` console resource (server: `src/admin/api/resources/applications.rs`). */
import { ApplicationList, ApplicationShow } from './pages';

export default { list: ApplicationList, show: ApplicationShow };
