//! `COPY … FROM STDIN`: data written into CopyData messages of about 256 KiB.

use super::*;

/// COPY data: written into a buffer, sent as a CopyData message whenever it passes
/// [`COPY_CHUNK`].
pub struct CopyData<'a> {
    client: &'a mut Client,
    buf: Vec<u8>,
}

impl CopyData<'_> {
    fn flush_data(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        frontend::CopyData::new(&self.buf[..])?.write(&mut self.client.wbuf);
        self.buf.clear();
        self.client.send().map_err(|e| match e {
            Error::Io(e) => e,
            other => io::Error::other(other.to_string()),
        })
    }
}

impl Write for CopyData<'_> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= COPY_CHUNK {
            self.flush_data()?;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Client {
    /// `COPY … FROM STDIN` (`sql`), the data from `chunk` (which returns false after its
    /// last rows), sent in CopyData messages of about 256 KiB. Returns the rows copied.
    pub fn copy_in(
        &mut self,
        sql: &str,
        mut chunk: impl FnMut(&mut dyn Write) -> io::Result<bool>,
    ) -> Result<u64, Error> {
        self.usable()?;
        if let Err(e) = frontend::query(sql, &mut self.wbuf) {
            return Err(self.unencodable(e));
        }
        self.extended = false;
        self.send()?;
        loop {
            match self.read_message()? {
                Message::CopyInResponse(_) => break,
                Message::ErrorResponse(b) => {
                    let e = db_error(&b);
                    if e.is_closed() {
                        self.broken = true;
                        return Err(e);
                    }
                    // The rest of the reply (ReadyForQuery).
                    self.reply(false, None)?;
                    return Err(e);
                }
                Message::NoticeResponse(_) | Message::ParameterStatus(_) => {}
                _ => return Err(self.fail("unexpected reply to COPY FROM STDIN".into())),
            }
        }
        let mut data = CopyData {
            client: self,
            buf: Vec::with_capacity(COPY_CHUNK + (64 << 10)),
        };
        let produced = loop {
            match chunk(&mut data) {
                Ok(true) => continue,
                Ok(false) => break data.flush_data().map_err(Error::Io),
                Err(e) => break Err(Error::Io(e)),
            }
        };
        match produced {
            Ok(()) => frontend::copy_done(&mut self.wbuf),
            Err(e) => {
                if self.broken {
                    return Err(e);
                }
                frontend::copy_fail(&e.to_string(), &mut self.wbuf)?;
                self.send()?;
                let _ = self.reply(false, None);
                return Err(e);
            }
        }
        self.send()?;
        Ok(self.reply(false, None)?.affected)
    }
}
