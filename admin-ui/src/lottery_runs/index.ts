/** The `lottery_runs` console resource (server: `src/admin/api/resources/lottery_runs.rs`). */
import { LotteryRunCreate, LotteryRunList, LotteryRunShow } from './pages';

export default { list: LotteryRunList, show: LotteryRunShow, create: LotteryRunCreate };
