/** The `lottery_runs` console resource (server: `src/admin/api/resources/lottery_runs.rs`). */
import CasinoIcon from '@mui/icons-material/Casino';
import { LotteryRunCreate, LotteryRunList, LotteryRunShow } from './pages';

export default { list: LotteryRunList, show: LotteryRunShow, create: LotteryRunCreate, icon: CasinoIcon };
