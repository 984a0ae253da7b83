import { configure } from '@testing-library/preact'

// CI runs unit tests beside the integration suite on 2 cores: give DOM waits room.
configure({ asyncUtilTimeout: 5000 })
