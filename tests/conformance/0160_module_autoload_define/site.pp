mrtestusers::account { 'mrtest-mod-user': uid => 4501 }
